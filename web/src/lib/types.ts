/** The API shapes the app reads (SPEC §2–§5; the OpenAPI document at /openapi.json has them all). */

export type ClosedReason = 'archived' | 'disabled' | 'deadline';

export type EventStatus = {
  isArchived: boolean;
  orderingEnabled: boolean;
  deadline: string | null;
  active: boolean;
  /** Why the event takes no orders; null while active. */
  closedReason: ClosedReason | null;
};

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
  /** The thumbnail at 1x and 2x, for `<img srcset>`. */
  srcset?: string;
  fullSize: string;
  metadata: { day: string; session: string; width: number; height: number; takenAt?: string };
};

/** `GET /api/admin/intake`. */
export type IntakeStatus = {
  pending: number;
  inspecting: number;
  broken: { event: string; path: string; reason: string; size: number; since: string }[];
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

/** `GET /api/photos/{event}/{photo}`: a photo by number, its folder and its pages. */
export type PhotoPlace = { index: number; page: number; totalCount: number; path: string };
export type PhotoLookup = {
  photo: PhotoItem;
  event: { code: string; name: string };
  folder: { day: string; session: string; path: string };
  limit: number;
  position: { event: PhotoPlace; day: PhotoPlace; session: PhotoPlace };
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
  closedReason: ClosedReason | null;
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
  shippingStatus: 'ship' | 'shipped' | 'pickup';
  trackingNumber: string;
  feedback: string;
  createdAt: string;
  updatedAt: string;
  verificationRequired: boolean;
  addressVerified: boolean | null;
  channel: 'web' | 'booth';
};

/** `POST /api/orders/lookup`: what a customer may see of their order. */
export type CustomerOrder = {
  orderNumber: string;
  eventSlug: string;
  eventName: string | null;
  status: OrderStatus;
  shippingStatus: 'ship' | 'shipped' | 'pickup';
  trackingNumber: string;
  fulfillmentType: 'ship' | 'pickup';
  items: string;
  subtotal: string;
  shippingFee: string;
  total: string;
  createdAt: string;
  updatedAt: string;
  verificationRequired: boolean;
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

/** `GET /api/orders/summary/breakdown`: paid orders by day and by event, dollars. */
export type SalesBreakdown = {
  eventSlug: string | null;
  timeZone: string;
  byDay: { date: string; orders: number; revenue: number }[];
  byEvent: { eventSlug: string; eventName: string | null; orders: number; revenue: number }[];
};

export type CaptchaChallenge =
  | { provider: 'altcha'; parameters: Record<string, unknown>; signature: string }
  | { provider: 'turnstile' | 'hcaptcha' | 'recaptcha'; siteKey: string | null }
  | { provider: 'off' };
