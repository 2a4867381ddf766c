// The snippets of the pages snippet group "load" names (groups.ts) run as written: snippet-tests.ts.
import t from "tap";
import { packageRoot } from "../../package-root.ts";
import { docFiles } from "./extract.ts";
import { filesOfGroup } from "./groups.ts";
import { testSnippetsOf } from "./snippet-tests.ts";

t.setTimeout(600_000);
testSnippetsOf(t, filesOfGroup("load", docFiles(packageRoot)));
