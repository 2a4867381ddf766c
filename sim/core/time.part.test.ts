import t from "tap";
import { TimeOverflowError } from "./errors.ts";
import { US_PER_MS, US_PER_S, checkTime, hours, minutes, ms, seconds } from "./time.ts";

t.test("unit helpers convert to integer microseconds, rounding", (t) => {
  t.equal(US_PER_MS, 1000);
  t.equal(US_PER_S, 1_000_000);
  t.equal(ms(1), 1000);
  t.equal(ms(1.0004), 1000);
  t.equal(ms(0.0006), 1);
  t.equal(seconds(2.5), 2_500_000);
  t.equal(minutes(1), 60_000_000);
  t.equal(hours(1.5), 5_400_000_000);
  t.ok(Object.is(ms(-0.0001), 0), "-0 becomes 0");
  t.end();
});

t.test("checkTime accepts non-negative safe integers only", (t) => {
  t.equal(checkTime(0), 0);
  t.equal(checkTime(Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
  for (const bad of [-1, 1.5, Number.NaN, Infinity, 2 ** 53]) {
    t.throws(() => checkTime(bad), TimeOverflowError, `${bad}`);
  }
  try {
    checkTime(2 ** 53);
  } catch (e) {
    t.ok(e instanceof TimeOverflowError);
    const err = e as TimeOverflowError;
    t.equal(err.code, "CPSIM_ERR_TIME_OVERFLOW");
    t.equal(err.name, "TimeOverflowError");
    t.equal(err.value, 2 ** 53);
  }
  t.throws(() => hours(3e6), TimeOverflowError, "about 342 years overflows");
  t.throws(() => seconds(-1), TimeOverflowError);
  t.end();
});
