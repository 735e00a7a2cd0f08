// Public entry of the reference sandbox. CONTRACT (implemented by the sandbox work; callers: the CLI's
// `serve` and `run` commands, tests, benches). The sandbox imports nothing from the certifier.

export type { Operator } from './operator.js';
export type {
  HookRequest,
  HookResponse,
  ObservedExchange,
  ObservedWebhookAttempt,
  SandboxHooks,
  SandboxObservation,
  SimulatedAnswer,
} from './hooks.js';
export type { Provision, ProvisionOptions, RunningSandbox, SandboxOptions } from './public-types.js';
export type { VariantDefinition } from './variants/index.js';
export { startSandbox, listFaults, listVariants } from './server.js';
