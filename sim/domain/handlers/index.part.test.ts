import t from "tap";
import { getHandler, handlers } from "./index.ts";

t.test("the registry holds each handler under its own name", async (t) => {
  t.same(Object.keys(handlers).sort(), ["conformance", "image-generation", "text-generation"]);
  for (const [name, h] of Object.entries(handlers)) {
    t.equal(h.name, name);
    t.equal(getHandler(name), h);
  }
  t.same(
    Object.fromEntries(Object.values(handlers).map((h) => [h.name, h.streaming])),
    { conformance: true, "image-generation": false, "text-generation": true },
  );
});

t.test("unknown names, inherited properties included, find nothing", async (t) => {
  for (const name of ["nope", "constructor", "toString", "__proto__", ""]) t.equal(getHandler(name), undefined, name);
});
