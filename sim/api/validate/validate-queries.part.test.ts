import t from "tap";
import { validateTtlQuery } from "./validate-ttl-query.ts";
import { validateWaitQuery } from "./validate-wait-query.ts";

t.test("wait: 1000..300000 ms, default 90000", async (t) => {
  t.same(validateWaitQuery(undefined), { ok: true, value: 90000 });
  t.same(validateWaitQuery(""), { ok: true, value: 90000 });
  t.same(validateWaitQuery("1000"), { ok: true, value: 1000 });
  t.same(validateWaitQuery("300000"), { ok: true, value: 300000 });
  t.same(validateWaitQuery(["5000"]), { ok: true, value: 5000 });
  for (const raw of ["999", "300001", "9e4", "+5000", "5000.0", "five", ["1000", "2000"], 5000]) {
    t.match(validateWaitQuery(raw), { ok: false, status: 400, violations: [{ ruleId: "jobs.runsync.wait-range", path: "?wait", message: /query parameter wait .*; send a whole number/ }] }, String(raw));
  }
});

t.test("ttl: positive whole milliseconds (the spec's own example is 6000)", async (t) => {
  t.same(validateTtlQuery(undefined), { ok: true, value: undefined });
  t.same(validateTtlQuery("6000"), { ok: true, value: 6000 });
  for (const raw of ["0", "-1", "6e3", "604800001"]) {
    t.match(validateTtlQuery(raw), { ok: false, status: 400, violations: [{ ruleId: "jobs.status.ttl-query", path: "?ttl" }] }, raw);
  }
});
