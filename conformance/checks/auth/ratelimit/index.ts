// The rate-limit rules, in the order they must run: reads first, the other key's window spent last.
import "./header-checks.ts";
import "./remaining-decreases.ts";
import "./per-user.ts";
import "./exhaustion-checks.ts";
