/**
 * What to send instead, per field shape (see fieldShape): the second half of every message.
 * One table for all request bodies, since the same field means the same thing everywhere.
 */
export const FIELD_HINTS: Readonly<Record<string, string>> = {
  name: 'a non-empty string, e.g. "my-pod"',
  image: 'an image reference string, e.g. "runpod/pytorch:2.4.0"',
  args: 'a string of entrypoint arguments, e.g. "--port 8888", or leave it out',
  disk: "a whole number of GB, 1 or more, e.g. 50",
  ports: 'an array of "port/protocol" strings, e.g. ["8888/http", "22/tcp"]',
  "ports[]": 'a "port/protocol" string with a port from 1 to 65535 and a lower-case protocol, e.g. "8888/http" or "22/tcp"',
  env: 'an object of string values, e.g. {"HF_HOME": "/workspace"}',
  "env.*": 'a string, e.g. "8888" rather than 8888',
  registry: "a registry credential id string, or null",
  gpu: '{"id": "<GPU type id>", "count": 1}',
  "gpu.id": 'a GPU type id string, e.g. "NVIDIA GeForce RTX 4090"',
  "gpu.count": "a whole number of GPUs, 1 or more",
  cpu: '{"id": "<CPU flavor id>", "vcpuCount": 2}',
  "cpu.id": 'a CPU flavor id from GET /v2/catalog/cpus, e.g. "cpu3c"',
  "cpu.vcpuCount": "a power of two, 2 or more, that the flavor offers, e.g. 4",
  mounts:
    'an object with at most one of {"persistent": {"size": 20, "path": "/workspace"}} and {"network": [{"volumeId": "<id>", "path": "/workspace"}]}',
  "mounts.persistent": '{"size": 20, "path": "/workspace"}',
  "mounts.persistent.size": "a whole number of GB, 10 or more",
  "mounts.persistent.path": 'a mount path string, e.g. "/workspace"',
  "mounts.network": 'an array of one entry, e.g. [{"volumeId": "<id>", "path": "/workspace"}]',
  "mounts.network[]": '{"volumeId": "<network volume id>", "path": "/workspace"}',
  "mounts.network[].volumeId": "the id string of an existing network volume",
  "mounts.network[].path": 'a mount path string, e.g. "/workspace"',
  cloud: '"SECURE" or "COMMUNITY"',
  dataCenterIds: 'an array of data center id strings, e.g. ["EU-RO-1"], or [] to let the scheduler choose',
  "dataCenterIds[]": 'a data center id string, e.g. "EU-RO-1"',
  globalNetworking: "true or false",
  locked: "true or false",
  action: '"start", "stop", "restart" or "terminate"',
  input: 'a JSON object, e.g. {"input": {"prompt": "hello"}}',
  webhook: 'an http(s) URL string, e.g. "https://example.com/hook"',
  policy: '{"executionTimeout": 600000, "ttl": 86400000, "lowPriority": false}',
  "policy.executionTimeout": "whole milliseconds from 5000 (5 s) to 604800000 (7 days)",
  "policy.ttl": "whole milliseconds from 10000 (10 s) to 604800000 (7 days)",
  "policy.lowPriority": "true or false",
  s3Config: "a JSON object",
};

export function fieldHint(shape: string): string {
  return FIELD_HINTS[shape] ?? "a value of the documented type";
}
