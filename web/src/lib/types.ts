/** The API shapes the app reads (SPEC §2–§5; the OpenAPI document at /openapi.json has them all). */

export type EventStatus = { isArchived: boolean; orderingEnabled: boolean; deadline: string | null; active: boolean };

export type EventSummary = {
  code: string;
  name: string;
  date: string | null;
  photoCount: number;
  thumbnails: string[];
  status: EventStatus;
};

export type PhotoItem = {
  id: string;
  number: string;
  thumbnail: string;
  fullSize: string;
  metadata: { day: string; session: string; width: number; height: number; takenAt?: string };
};

export type FolderRef = { name: string; path: string; photoCount: number };
export type DayFolder = FolderRef & { sessions: FolderRef[] };

export type EventPage = {
  photos: PhotoItem[];
  totalCount: number;
  currentPage: number;
  totalPages: number;
  limit: number;
  event: {
    code: string;
    name: string;
    date: string | null;
    prefix: string;
    photoCount: number;
    status: EventStatus;
  };
  folders: DayFolder[];
};

/** A day or session page: the fields the app uses. */
export type FolderPage = {
  photos: PhotoItem[];
  totalCount: number;
  currentPage: number;
  totalPages: number;
  limit: number;
};

export type EventConfig = {
  eventSlug: string;
  eventName: string;
  eventPrefix: string;
  date: string | null;
  isArchived: boolean;
  orderingEnabled: boolean;
  deadline: string | null;
  prices: Record<string, number>;
  defaultSize: string;
  shippingFee: number;
  active: boolean;
  closedReason: 'archived' | 'disabled' | 'deadline' | null;
};

export type ActiveEvent = {
  eventSlug: string;
  eventName: string;
  eventPrefix: string;
  date: string | null;
  active: boolean;
};

export type OrderStatus = 'pending' | 'paid' | 'void' | 'cancelled';

export type Order = {
  id: string;
  orderNumber: string;
  eventSlug: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  fulfillmentType: 'ship' | 'pickup';
  shippingAddress: string;
  city: string;
  state: string;
  zipCode: string;
  items: string;
  subtotal: string;
  shippingFee: string;
  total: string;
  status: OrderStatus;
  shippingStatus: 'ship' | 'shipped';
  trackingNumber: string;
  feedback: string;
  createdAt: string;
  updatedAt: string;
  verificationRequired: boolean;
  addressVerified: boolean | null;
  channel: 'web' | 'booth';
};

export type OrderChange = { success: true; message: string; changed: boolean; order: Order };

export type SalesSummary = {
  totalOrders: number;
  pendingCount: number;
  completedCount: number;
  cancelledCount: number;
  totalRevenue: number;
  pendingRevenue: number;
  averageOrderValue: number;
};

export type CaptchaChallenge =
  | { provider: 'altcha'; parameters: Record<string, unknown>; signature: string }
  | { provider: 'turnstile' | 'hcaptcha' | 'recaptcha'; siteKey: string | null }
  | { provider: 'off' };
