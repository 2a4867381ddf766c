// The waits a key's quotas impose on a run, and the bounds sized to them (quota-sizing.ts).
import t from "tap";
import { describeQuotaSizing, expectedRequests, FULL_RUN_REQUESTS, quotaSizing } from "./quota-sizing.ts";
import { rateLimitBudgetS } from "./options.ts";

t.test("a quota the run fits in asks for nothing; a small one widens the bounds, within caps", async (t) => {
  t.equal(quotaSizing(undefined, 1700), undefined, "no header: nothing known");
  t.equal(quotaSizing("not a list ;;", 1700), undefined, "unreadable: nothing known");
  t.equal(quotaSizing(`"minute";q=1000;w=60, "hour";q=20000;w=3600, "day";q=200000;w=86400`, 1700), undefined, "the fixtures' main key waits one minute at most: unscaled");
  const example = quotaSizing(`"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400`, 1700)!;
  t.same(example, { window: `"minute" q=60 w=60`, requests: 1700, waitS: 28 * 60, propertyScale: 4, budgetS: 2520 }, "choices.md's example quotas: 29 minutes' worth, the bounds at their cap");
  const tight = quotaSizing(`"minute";q=120;w=60, "hour";q=3000;w=3600`, 1700)!;
  t.same([tight.waitS, tight.propertyScale, tight.budgetS], [14 * 60, 2.8, 1260], "120 a minute (rateQuotas=tight)");
  const hourly = quotaSizing(`"minute";q=1000;w=60, "hour";q=600;w=3600`, 1700)!;
  t.same([hourly.window, hourly.waitS, hourly.propertyScale, hourly.budgetS], [`"hour" q=600 w=3600`, 7200, 4, 3600], "an hour quota below the run: the hour binds, the budget at its cap");
  t.match(describeQuotaSizing(tight, 1260, false), /"minute" q=120 w=60 makes about 1700 requests wait at least 840 s; property bounds ×2\.8, rate-limit waits bounded at 1260 s \(sized; --rate-limit-budget sets it\)/);
});

t.test("the requests expected follow the rules selected; a given budget or --max-duration wins over the sized one", async (t) => {
  t.equal(expectedRequests(189, 189), FULL_RUN_REQUESTS);
  t.equal(expectedRequests(19, 190), 170);
  t.equal(rateLimitBudgetS({}, 1260), 1260, "sized");
  t.equal(rateLimitBudgetS({}), 300, "the default");
  t.equal(rateLimitBudgetS({ maxDurationS: 600 }, 1260), 600, "--max-duration");
  t.equal(rateLimitBudgetS({ rateLimitBudgetS: 90, maxDurationS: 600 }, 1260), 90, "--rate-limit-budget");
});
