// What a route answers: a reply, or a refusal in the spec's error envelope. A leaf, so that the faults,
// which reshape both, depend on nothing of the app.

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A refusal with the spec's error envelope; thrown by handlers, rendered by the app. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
  }
}
