// The snippets of the pages snippet group "library" names (groups.ts) run as written: snippet-tests.ts.
import t from "tap";
import { packageRoot } from "../../package-root.ts";
import { docFiles } from "./extract.ts";
import { filesOfGroup } from "./groups.ts";
import { testSnippetsOf } from "./snippet-tests.ts";

t.setTimeout(600_000);
// As in a project that installed cpsim (#35: an example that read fixtures/ worked only in the clone).
testSnippetsOf(t, filesOfGroup("library", docFiles(packageRoot)), { installed: true });
