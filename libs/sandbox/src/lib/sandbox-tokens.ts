/** Injection tokens of SandboxModule. */
export const SANDBOX_FACTORY = Symbol('SANDBOX_FACTORY');
export const SANDBOX_OPTIONS = Symbol('SANDBOX_OPTIONS');
export const SANDBOX_OWNER = Symbol('SANDBOX_OWNER');
export const DOCKER_CLIENT = Symbol('DOCKER_CLIENT');
