// The public surface of `cpsim proxy`: the library API the CLI is a thin layer over.
export { startProxy, type ProxyEvents, type ProxyHandle, type ProxyResult, type StopReason } from "./proxy.ts";
export { defaultOptions as defaultProxyOptions, resolveOptions as resolveProxyOptions, type FailOn, type ProxyOptions } from "./options.ts";
export { proxyReport, NOT_JUDGEABLE, NOT_SEEN } from "./proxy-report.ts";
export { proxyExitCode } from "./exit-code.ts";
export { curlLine, findingLines } from "./finding-line.ts";
export { ProxyConfigError, ProxyListenError } from "./errors.ts";
export { createProxyCommand, optionsFromFlags as proxyOptionsFromFlags, spec as proxySpec } from "./cli.ts";
