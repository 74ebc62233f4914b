/** The engine's client, as ArvoDockerModule provides it. */
export const DOCKER_CLIENT = Symbol('DOCKER_CLIENT');
