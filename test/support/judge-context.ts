// The judging context the partner rules' unit tests share: a final judgement at time scale 1, with a
// webhook registered and injections on, at a fixed clock; a test overrides what it is about.

import type { JudgeContext } from '../../src/partner/traffic.js';

export const judgeContext = (over: Partial<JudgeContext> = {}): JudgeContext => ({
  timeScale: 1,
  webhookRegistered: true,
  inject: true,
  final: true,
  now: 10_000_000,
  ...over,
});
