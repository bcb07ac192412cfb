/** Runs post-commit callbacks; one failing must not stop the others nor fail the committed change. */
export function runAfterCommit(callbacks: Array<() => void>): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      console.error('after-commit callback failed', error);
    }
  }
}
