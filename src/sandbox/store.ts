// In-memory state of the sandbox. Secrets are kept only as hashes; lookups go through maps keyed by them.
import type { EngineRequirement } from './collaborators.js';
import type { FixtureName } from './fixtures/fixture-names.js';

export interface Partner {
  id: string;
  name: string;
  keyHash: string;
  keyPrefix: string;
  enabled: boolean;
  webhookSecret: string;
  webhookUrl: string | undefined;
  ratePerMinute: number;
  ratePerDay: number;
  defaultLang: 'he' | 'en';
}

export interface Organization {
  id: string;
  partnerId: string;
  externalId: string;
  name: string;
  tokenHash: string;
  enabled: boolean;
  walletBalance: number;
  /** Candidates whose contact this organization already paid for ("already revealed for the organization"). */
  revealed: Set<bigint>;
  /** Bumped on every new reveal: invalidates cached run reads (contact_state). */
  revealVersion: number;
  /** Start times of real sandbox runs, for the rolling quota. */
  realRunStarts: number[];
}

export interface ActivationCode {
  normalized: string;
  display: string;
  partnerId: string;
  organizationName: string;
  createdAt: number;
  expiresAt: number;
  redeemedAt: number | undefined;
}

export interface User {
  userId: string;
  externalId: string;
  email: string | null;
  fullName: string | null;
  role: string | null;
}

export interface Job {
  jobId: string;
  externalId: string;
  title: string;
  descriptionText: string;
  locationText: string;
}

export interface DecisionEntry {
  candidateId: bigint;
  decision: string;
  rejectReason: string | null;
  note: string | null;
  occurredAt: string;
  actingUser: string;
  receivedAt: number;
}

export interface Run {
  id: string;
  organizationId: string;
  partnerId: string;
  jobExternalId: string;
  requirements: EngineRequirement[];
  targetCount: number;
  createdAt: number;
  fixture: FixtureName | undefined;
  /** Price quoted per candidate in the latest read: production reveals charge it. */
  quotedPrices: Map<bigint, number>;
  /** Candidates for which candidate_revealed was queued (once per run and candidate). */
  revealEvents: Set<bigint>;
  decisions: Map<string, DecisionEntry>;
  noticesShown: Set<string>;
  terminalEmitted: boolean;
  /** Serialized reads of a finished fixture run, by language and price override. */
  readCache: Map<string, { version: number; body: Buffer }>;
}

export class Store {
  readonly partners = new Map<string, Partner>();
  readonly partnersByKeyHash = new Map<string, Partner>();
  readonly organizations = new Map<string, Organization>();
  readonly orgsByTokenHash = new Map<string, Organization>();
  /** partnerId → externalId → organization id */
  readonly orgExternalIds = new Map<string, Map<string, string>>();
  readonly codes = new Map<string, ActivationCode>();
  /** organizationId → externalId → user */
  readonly users = new Map<string, Map<string, User>>();
  /** organizationId → externalId → job */
  readonly jobs = new Map<string, Map<string, Job>>();
  readonly runs = new Map<string, Run>();

  usersOf(orgId: string): Map<string, User> {
    let m = this.users.get(orgId);
    if (!m) this.users.set(orgId, (m = new Map()));
    return m;
  }

  jobsOf(orgId: string): Map<string, Job> {
    let m = this.jobs.get(orgId);
    if (!m) this.jobs.set(orgId, (m = new Map()));
    return m;
  }

  externalIdsOf(partnerId: string): Map<string, string> {
    let m = this.orgExternalIds.get(partnerId);
    if (!m) this.orgExternalIds.set(partnerId, (m = new Map()));
    return m;
  }
}
