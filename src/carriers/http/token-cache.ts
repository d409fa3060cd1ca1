/**
 * OAuth access tokens cached per carrier account: reused until `refreshBeforeMs` before they
 * expire, one fetch in flight per account at a time (concurrent callers share it), and a token
 * the carrier refused (401) is dropped so the next caller fetches a new one, once.
 */
export interface AccessToken {
  accessToken: string;
  /** Lifetime in seconds from when it was fetched. */
  expiresInS: number;
}

interface Entry {
  token: string;
  expiresAt: number;
}

export class TokenCache {
  private readonly tokens = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly now: () => number,
    private readonly refreshBeforeMs = 60_000,
  ) {}

  async get(key: string, fetchToken: () => Promise<AccessToken>): Promise<string> {
    const cached = this.tokens.get(key);
    if (cached && this.now() < cached.expiresAt - this.refreshBeforeMs) return cached.token;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const started = this.now();
    const p = (async () => {
      try {
        const fresh = await fetchToken();
        // A lifetime shorter than the refresh margin would never be reused: keep it for half of it.
        const lifeMs = Math.max(0, fresh.expiresInS * 1000);
        const expiresAt = started + (lifeMs > this.refreshBeforeMs * 2 ? lifeMs : lifeMs / 2 + this.refreshBeforeMs);
        this.tokens.set(key, { token: fresh.accessToken, expiresAt });
        return fresh.accessToken;
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, p);
    return p;
  }

  /** Drops `token` if it is still the cached one (a refused token is never reused). */
  invalidate(key: string, token: string): void {
    if (this.tokens.get(key)?.token === token) this.tokens.delete(key);
  }

  clear(key: string): void {
    this.tokens.delete(key);
  }
}
