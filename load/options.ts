/** The options object of `load()`; the CLI maps its flags onto exactly this. */

export type LoadEngine = "autocannon" | "k6";

export interface LoadOptions {
  /** {base_url}; without it the embedded emulator is started in a child process. */
  readonly target?: string;
  /** {serverless_url}; --target by default. */
  readonly serverlessUrl?: string;
  /** The key of the run; the embedded emulator's rate-limit-exempt key by default. */
  readonly apiKey?: string;
  /** The rate-limit scenario's key: the embedded emulator's rate-limited key, else apiKey. */
  readonly limitedApiKey?: string;
  /** Which of the two keys came from $CPSIM_API_KEY / $CPSIM_LIMITED_API_KEY (the reproduce line names the variable). */
  readonly keysFromEnvironment?: readonly ("api" | "limited")[];
  readonly endpoint: string;
  /** Built-in scenario names; all when empty (and no scenarioFiles). */
  readonly scenarios: readonly string[];
  readonly scenarioFiles: readonly string[];
  /** Override every scenario's own bounds. */
  readonly durationS?: number;
  readonly connections?: number;
  readonly maxRequests?: number;
  /** The open model at this arrival rate (requests/s); the closed model when absent. */
  readonly rate?: number;
  readonly pipelining: number;
  readonly timeoutS: number;
  readonly seed?: number;
  readonly baseline?: string;
  readonly maxRegressionPct: number;
  readonly reportDir?: string;
  readonly json: boolean;
  readonly exportK6?: string;
  readonly engine: LoadEngine;
  readonly respectRateLimit: boolean;
  /** Print the one-line-per-second progress (on stderr). */
  readonly progress: boolean;
  /** A --target-profile file (conform's): the target's paths, which win over discovery. */
  readonly targetProfile?: string;
  /** --out json=FILE / csv=FILE: each scenario's per-second figures, written while it runs. */
  readonly out: readonly string[];
}

export const defaultOptions: LoadOptions = {
  endpoint: "conformance",
  scenarios: [],
  scenarioFiles: [],
  pipelining: 1,
  timeoutS: 30,
  maxRegressionPct: 10,
  json: false,
  engine: "autocannon",
  respectRateLimit: false,
  progress: true,
  out: [],
};

/** Bad options or an unusable target: exit 2, with what to do. */
export class LoadConfigError extends Error {
  override readonly name = "LoadConfigError";
  readonly code = "CPSIM_ERR_LOAD_CONFIG";
  readonly exitCode = 2;
}
