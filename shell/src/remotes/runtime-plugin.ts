import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * Makes a failed remote an ordinary error for the React error boundary around it (which shows the translated
 * fallback with a retry button), instead of the runtime's own error codes escaping elsewhere; logs where it
 * failed (manifest, entry or module) for whoever reads the console.
 */
export default function remoteFailureReporter(): ModuleFederationRuntimePlugin {
  return {
    name: 'remote-failure-reporter',
    errorLoadRemote({ id, error, lifecycle }) {
      console.warn(`remote ${id} failed during ${lifecycle}`, error);
      throw error instanceof Error ? error : new Error(`remote ${id} failed during ${lifecycle}`);
    },
  };
}
