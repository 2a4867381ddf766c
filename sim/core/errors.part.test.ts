import t from "tap";
import {
  InvalidParameterError,
  SchedulingError,
  SimError,
  StepCapExceededError,
  TimeOverflowError,
} from "./errors.ts";

t.test("each error has a stable name and code and carries its evidence", (t) => {
  const cap = new StepCapExceededError(10, 10, 1234);
  t.match(cap, { name: "StepCapExceededError", code: "CPSIM_ERR_STEP_CAP", steps: 10, cap: 10, now: 1234 });
  const time = new TimeOverflowError(-1);
  t.match(time, { name: "TimeOverflowError", code: "CPSIM_ERR_TIME_OVERFLOW", value: -1 });
  const param = new InvalidParameterError("exponential.mean", -2, "a finite number > 0");
  t.match(param, { name: "InvalidParameterError", code: "CPSIM_ERR_BAD_PARAM", parameter: "exponential.mean", value: -2 });
  t.match(param.message, /exponential\.mean must be a finite number > 0, got -2/);
  const sched = new SchedulingError("past", "in the past", { time: 1, now: 2 });
  t.match(sched, { name: "SchedulingError", code: "CPSIM_ERR_SCHEDULE", reason: "past", evidence: { time: 1, now: 2 } });
  for (const e of [cap, time, param, sched]) {
    t.ok(e instanceof SimError, `${e.name} is a SimError`);
    t.ok(e instanceof Error, `${e.name} is an Error`);
    t.ok(e.stack);
  }
  t.end();
});
