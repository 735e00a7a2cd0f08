// How the sandbox's webhook queue delivers (spec: Events, delivery rules), as one value: the spec's policy
// is the default, and a fault at the `deliveryPolicy` point changes exactly one rule of it. A leaf.

export interface DeliveryPolicy {
  /** How long an attempt waits for the answer: the spec's 10 s, or a full minute (a late 2xx then counts). */
  ackWait: 'spec' | 'one-minute';
  /** A 3xx answer is followed to its Location (the spec: a redirect is a failed attempt). */
  followsRedirects: boolean;
  /** The bad-signature test event is retried like any other (the spec: sent once). */
  retriesBadSignatureTest: boolean;
  /** A 5xx answer is retried. */
  retriesAfterServerError: boolean;
  /** The delays between attempts: the spec's schedule, one flat delay, or retries past the eighth attempt. */
  backoff: 'spec' | 'flat' | 'past-eighth';
}

/** The delivery the spec asks for. */
export const SPEC_DELIVERY: DeliveryPolicy = {
  ackWait: 'spec',
  followsRedirects: false,
  retriesBadSignatureTest: false,
  retriesAfterServerError: true,
  backoff: 'spec',
};
