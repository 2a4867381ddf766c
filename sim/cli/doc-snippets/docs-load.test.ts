// The snippets of the pages snippet group "load" names (groups.ts) run as written: snippet-tests.ts.
import t from "tap";
import { packageRoot } from "../../package-root.ts";
import { docFiles } from "./extract.ts";
import { filesOfGroup } from "./groups.ts";
import { testSnippetsOf } from "./snippet-tests.ts";

// Each snippet is bounded by its own timeout; the file by 900 s: 456 s for docs-conform at load 10.
t.setTimeout(900_000);
testSnippetsOf(t, filesOfGroup("load", docFiles(packageRoot)));
