import t from "tap";
import fc from "fast-check";
import { KeyDirectory, canWrite, parseAuthorization } from "./index.ts";

const dir = new KeyDirectory([
  { id: "acct-1", keys: [{ key: "KEY_FULL_0000000001", access: "full" }, { key: "KEY_RO_000000000001", access: "read-only" }] },
  { id: "acct-2", keys: [{ key: "KEY_EXEMPT_00000002", access: "exempt" }] },
]);

t.test("Bearer and bare keys, missing and malformed headers", async (t) => {
  t.same(parseAuthorization(undefined), { kind: "missing" });
  t.same(parseAuthorization("   "), { kind: "missing" });
  t.same(parseAuthorization([]), { kind: "missing" });
  t.same(parseAuthorization("Bearer abc"), { kind: "key", key: "abc" });
  t.same(parseAuthorization("bearer\tabc "), { kind: "key", key: "abc" });
  t.same(parseAuthorization("abc"), { kind: "key", key: "abc" });
  t.same(parseAuthorization(["Bearer abc"]), { kind: "key", key: "abc" });
  t.equal(parseAuthorization("Bearer").kind, "malformed");
  t.equal(parseAuthorization("Basic dXNlcjpwdw==").kind, "malformed");
  t.equal(parseAuthorization("Bearer a b").kind, "malformed");
  t.equal(parseAuthorization(["a", "b"]).kind, "malformed");
  t.equal(parseAuthorization("Bearer caf\u00e9").kind, "malformed");
});

t.test("lookup and authenticate", async (t) => {
  t.same(dir.lookup("KEY_RO_000000000001"), { accountId: "acct-1", access: "read-only" });
  t.equal(dir.lookup("nope"), undefined);
  t.same(dir.authenticate("Bearer KEY_EXEMPT_00000002"), { ok: true, accountId: "acct-2", access: "exempt" });
  t.same(dir.authenticate("KEY_FULL_0000000001"), { ok: true, accountId: "acct-1", access: "full" });
  t.same(dir.authenticate("Bearer wrong"), { ok: false, error: "invalid" });
  t.same(dir.authenticate(undefined), { ok: false, error: "missing" });
  t.same(dir.authenticate("Token x y"), { ok: false, error: "malformed" });
  t.notOk(canWrite("read-only"));
  t.ok(canWrite("full") && canWrite("exempt"));
});

t.test("the Bearer fast path answers as parsing does, and only for keys parsing accepts", async (t) => {
  const odd = new KeyDirectory([{ id: "acct-3", keys: [{ key: "two words", access: "full" }, { key: "fine_key", access: "full" }] }]);
  t.same(odd.authenticate("Bearer two words"), { ok: false, error: "malformed" }, "a catalog key parsing refuses is not let in by the shortcut");
  t.same(odd.authenticate("Bearer fine_key"), odd.authenticate("bearer  fine_key"));
  t.ok(Object.isFrozen(odd.authenticate("Bearer fine_key")), "the shared answer cannot be changed");
});

t.test("property: any token round-trips through both header forms", async () => {
  const token = fc.stringMatching(/^[A-Za-z0-9_\-.]{1,40}$/).filter((s) => s.toLowerCase() !== "bearer");
  fc.assert(
    fc.property(token, (key) => {
      const a = parseAuthorization(`Bearer ${key}`);
      const b = parseAuthorization(key);
      return a.kind === "key" && a.key === key && b.kind === "key" && b.key === key;
    }),
  );
});
