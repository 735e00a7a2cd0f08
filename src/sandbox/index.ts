// Public entry of the reference sandbox. CONTRACT (implemented by the sandbox work; callers: the CLI's
// `serve` and `run` commands, tests, benches). The sandbox imports nothing from the certifier.

export type { ObservedExchange, SandboxHooks } from './hooks.js';
export type { Provision, RunningSandbox, SandboxOptions } from './public-types.js';
export { startSandbox, listFaults, listVariants } from './server.js';
