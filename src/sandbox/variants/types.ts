/**
 * A named *conformant* choice the sandbox can be started with (`--variant ID`): the counterpart of a
 * fault. The spec leaves the choice open (or reads two ways); a certifier that fails a variant blames a
 * conformant server, so the variant matrix certifies the sandbox with each one on and no check may fail.
 */
export interface VariantDefinition {
  /** Dotted id, stable: "decisions.whole-second-occurred-at". */
  id: string;
  /** Area of the spec, for --list-variants grouping. */
  area: string;
  /** One line: what the sandbox does differently when this variant is on. */
  summary: string;
  /**
   * 'production': the choice exists only in production mode (e.g. what a reveal charges), so the variant
   * matrix certifies a production-mode sandbox with it on. Default: sandbox mode.
   */
  mode?: 'production';
  /** The spec's words that leave this choice open. */
  allowedBy: string;
  /**
   * Checks that end `warning` (never `failed`) with this variant on: the spec states the rule without a
   * MUST or reads two ways, and the variant takes the reading the certifier does not prefer.
   */
  warns?: readonly string[];
}
