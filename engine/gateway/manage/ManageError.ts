/**
 * Why manage mode could not take a request or an option (`[gateway-manage-bad-input]`). The gateway
 * refuses such a request with the provider's own error shape; nothing of the thread's state changed.
 */
export class ManageError extends Error {
  override readonly name = 'ManageError';

  constructor(
    /** `request`: the body is not a request of the API it came on; `options`: the manager was configured wrongly; `controls`: the operator's pins and removals contradict each other. */
    readonly kind: 'request' | 'options' | 'controls',
    message: string,
  ) {
    super(message);
  }
}

/** Throws a request `ManageError` with `message` unless `condition` holds. */
export function requireShape(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ManageError('request', message);
}
