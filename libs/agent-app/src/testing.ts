// Test-only entry point (`@arvo-rca/agent-app/testing`): what both agents' app specs do around their
// assertions, booting the app module from the environment as `main.ts` does.
export { bootWith, fetchServedCard, isolateAppEnvironment } from './lib/testing/agent-app.testing';
