/** Injection tokens of the sandbox modules (ArvoDockerModule provides them). */
export const SANDBOX_FACTORY = Symbol('SANDBOX_FACTORY');
export const SANDBOX_OPTIONS = Symbol('SANDBOX_OPTIONS');
export const SANDBOX_OWNER = Symbol('SANDBOX_OWNER');
