/**
 * Live: the event's photo count from `/event/<code>/live`; photos copied in meanwhile are
 * announced ("N new photos") and loaded when tapped, never pushed under the visitor's thumb.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { LiveCount } from '../../lib/api-schema.js';
import { whenIdle } from '../../lib/hooks.js';
import { eventPath } from '../../lib/router.js';

/** `shown`: the count the page was built with. `acknowledge` takes the current count as seen. */
export function useLiveCount(code: string, shown: number | undefined) {
  const [liveCount, setLiveCount] = useState<number | undefined>();
  const baseCount = useRef<number | undefined>(undefined);
  // The stream holds one of the browser's few connections: opened once the first photos are in.
  // The count to compare with is the one the page was built with.
  const shownCount = useRef<number | undefined>(undefined);
  shownCount.current = shown;
  useEffect(() => {
    if (!('EventSource' in window)) return;
    let source: EventSource | undefined;
    let left = false;
    whenIdle(() => {
      if (left) return;
      source = new EventSource(`${eventPath(code)}/live`);
      source.addEventListener('photos', (e) => {
        const { totalCount } = JSON.parse((e as MessageEvent<string>).data) as LiveCount;
        baseCount.current ??= shownCount.current ?? totalCount;
        setLiveCount(totalCount);
      });
    });
    return () => {
      left = true;
      source?.close();
    };
  }, [code]);
  const newPhotos = liveCount !== undefined && baseCount.current !== undefined ? liveCount - baseCount.current : 0;

  const acknowledge = () => {
    baseCount.current = liveCount;
    setLiveCount(liveCount);
  };
  return { newPhotos, acknowledge };
}
