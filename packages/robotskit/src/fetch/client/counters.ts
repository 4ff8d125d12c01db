/** The crawl client's counters (see {@link RobotsClientStats}): one object that every part counts into. */

/** The counted part of {@link RobotsClientStats}, in its order. */
export interface ClientCounters {
  fetches: number;
  hits: number;
  joined: number;
  loads: number;
  storeReads: number;
  storeWrites: number;
  storeErrors: number;
  fleetWaits: number;
  fleetTimeouts: number;
}

/** Counters at zero. */
export function newCounters(): ClientCounters {
  return {
    fetches: 0,
    hits: 0,
    joined: 0,
    loads: 0,
    storeReads: 0,
    storeWrites: 0,
    storeErrors: 0,
    fleetWaits: 0,
    fleetTimeouts: 0,
  };
}
