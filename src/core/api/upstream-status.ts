// An upstream engine's state as wisp-server reports it to its console (GET /console/api/models).
export interface UpstreamStatus {
  name: string;
  base_url: string;
  healthy: boolean;
  models: string[];
  latency_ms: number | null;
  /** Requests sent to it and not yet answered in full. */
  outstanding: number;
  last_error: string | null;
  /** ms since the epoch. */
  checked_at: number | null;
}
