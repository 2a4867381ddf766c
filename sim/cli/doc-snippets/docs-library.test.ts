// The snippets of the pages snippet group "library" names (groups.ts) run as written: snippet-tests.ts.
import t from "tap";
import { packageRoot } from "../../package-root.ts";
import { docFiles } from "./extract.ts";
import { filesOfGroup } from "./groups.ts";
import { testSnippetsOf } from "./snippet-tests.ts";

// Each snippet is bounded by its own timeout; the file by 900 s: 456 s for docs-conform at load 10.
t.setTimeout(900_000);
// As in a project that installed cpsim (#35: an example that read fixtures/ worked only in the clone).
testSnippetsOf(t, filesOfGroup("library", docFiles(packageRoot)), { installed: true });
