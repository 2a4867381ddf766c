// The apps client's build upload over HTTP, as runpod/apps/api.py does it: prepare_artifact_upload
// answers an uploadUrl on this emulator; upload_tarball PUTs the tarball there (Content-Type:
// application/gzip, its exact Content-Length, no key); finalize_artifact_upload and deploy_build
// follow. The emulator keeps the tarball's size and SHA-256, not its bytes; a wrong size, an
// unknown or finished upload, and a body over the limit are refused.
import { createHash } from "node:crypto";
import t from "tap";
import * as D from "../api/graphql/python-apps-documents.ts";
import { startEmulator } from "./emulator.ts";
import { PlatformBackend } from "./platform-backend.ts";
import { rawExchange, statusOf } from "./test-helpers.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";

t.test("prepare, PUT, finalize, deploy: the upload flow completes and the build records the tarball", async (t) => {
  let backend!: PlatformBackend;
  const emu = await startEmulator({ clock: "manual", createBackend: (o) => (backend = new PlatformBackend(o)) });
  t.teardown(() => emu.close());
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${emu.baseUrl}/graphql`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data?: Record<string, any>; errors?: { message: string }[] };
    if (body.errors) throw new Error(body.errors[0].message);
    return body.data!;
  };
  const app = (await gql(D.MUTATION_CREATE_FLASH_APP, { input: { name: "shop" } })).createFlashApp;
  const env = (await gql(D.MUTATION_CREATE_FLASH_ENVIRONMENT, { input: { flashAppId: app.id, name: "prod" } })).createFlashEnvironment;
  const tarball = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
  const upload = (await gql(D.MUTATION_PREPARE_ARTIFACT_UPLOAD, { input: { flashAppId: app.id, tarballSize: tarball.length } })).prepareFlashArtifactUpload;
  t.equal(upload.uploadUrl, `${emu.baseUrl}/flash-artifacts/${upload.objectKey}`, "an URL on this emulator, from the Host the client used");

  // AppsApiClient._put_tarball: no Authorization, the gzip type and the file's length.
  const put = (body: Buffer, url = upload.uploadUrl as string) =>
    fetch(url, { method: "PUT", headers: { "content-type": "application/gzip" }, body }); // fetch sends the Content-Length itself
  const short = await put(Buffer.alloc(10));
  t.equal(short.status, 400);
  t.match(await short.json(), { detail: /10 bytes but the upload was prepared for 3145745/ });
  const ok = await put(tarball);
  t.equal(ok.status, 200, "raise_for_status passes");
  const sha256 = createHash("sha256").update(tarball).digest("hex");
  t.equal(ok.headers.get("etag"), `"${sha256}"`);
  t.equal((await put(tarball)).status, 200, "a retried PUT (the client retries resets) replaces the first");

  const build = (await gql(D.MUTATION_FINALIZE_ARTIFACT_UPLOAD, { input: { flashAppId: app.id, objectKey: upload.objectKey, manifest: { version: "1.0", resources: {} } } })).finalizeFlashArtifactUpload;
  t.same(backend.model.resources.apps.buildsOf(app.id).map((b) => b.tarball), [{ bytes: tarball.length, sha256 }], "the build keeps the tarball's size and checksum");
  t.match((await gql(D.MUTATION_DEPLOY_BUILD, { input: { flashEnvironmentId: env.id, flashBuildId: build.id } })).deployBuildToEnvironment, { id: env.id });

  t.equal((await put(tarball)).status, 404, "a finalized upload takes no more PUTs");
  t.equal((await put(Buffer.alloc(1), `${emu.baseUrl}/flash-artifacts/flash/${app.id}/nope.tar.gz`)).status, 404);
  const huge = await rawExchange(emu.port, (send) => {
    send(`PUT /flash-artifacts/${upload.objectKey} HTTP/1.1\r\nHost: x\r\nContent-Type: application/gzip\r\nContent-Length: ${600 * 1024 * 1024}\r\n\r\n`);
  });
  t.equal(statusOf(huge.response), 413, "over the 500 MiB a tarball may have");
});
