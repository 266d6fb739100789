/**
 * What `fastify.mirror` offers routes: whether the mirror is on, and its status, read from the
 * record (so every process shows the same, whichever one mirrors).
 */
import type { MirrorPort, MirrorProblem, MirrorState } from '../store/ports/mirror.js';

export type MirrorStatus = MirrorState & {
  enabled: boolean;
  /** This process is the one writing to the sheet (with PostgreSQL, one process at a time). */
  leader: boolean;
  tab: string | null;
  /** Orders new or changed in the record and not yet in the sheet. */
  pending: number;
  conflicts: MirrorProblem[];
  rejected: MirrorProblem[];
  unreadable: MirrorProblem[];
  removed: MirrorProblem[];
  duplicates: MirrorProblem[];
};

export interface MirrorService {
  readonly enabled: boolean;
  status(): Promise<MirrorStatus>;
}

export function offService(): MirrorService {
  return {
    enabled: false,
    async status() {
      return {
        enabled: false,
        leader: false,
        tab: null,
        pending: 0,
        lastSyncAt: null,
        lastError: null,
        lastErrorAt: null,
        importedAt: null,
        conflicts: [],
        rejected: [],
        unreadable: [],
        removed: [],
        duplicates: [],
      };
    },
  };
}

export async function mirrorStatus(mirror: MirrorPort, leader: boolean, tab: string): Promise<MirrorStatus> {
  const [state, pending, problems] = await Promise.all([mirror.state(), mirror.pendingCount(), mirror.problems()]);
  const of = (kind: MirrorProblem['kind']) => problems.filter((p) => p.kind === kind);
  return {
    enabled: true,
    leader,
    tab,
    pending,
    ...state,
    conflicts: of('conflict'),
    rejected: of('rejected'),
    unreadable: of('unreadable'),
    removed: of('removed'),
    duplicates: of('duplicate'),
  };
}
