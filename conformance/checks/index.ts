// Every check of the suite: importing this module registers them all in `checks`.
import "./pods/index.ts";
import "./graphql/index.ts";
import "./jobs/index.ts";
import "./auth/index.ts";
import "../local-server/index.ts";
