/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`reports/json-report.test.ts > TAP > report.json holds the report as it is and reads back equal > report.json 1`] = `
{
  "tool": {
    "name": "cpsim",
    "version": "0.1.0"
  },
  "target": "http://127.0.0.1:8080",
  "serverlessUrl": "http://127.0.0.1:8080",
  "seed": 42,
  "profile": "lenient",
  "startedAt": "2025-01-01T00:00:00.000Z",
  "wallTimeMs": 31797,
  "requests": 120,
  "baseline": "previous/report.json",
  "rules": [
    {
      "id": "pods.create.required-fields",
      "title": "201 carries every required Pod field",
      "spec": "Required in the response: id, name, status, ...",
      "severity": "error",
      "status": "pass",
      "durationMs": 12,
      "requests": 3,
      "failures": []
    },
    {
      "id": "pods.create.unknown-property",
      "title": "Unknown properties are rejected",
      "spec": "Properties not listed in the body schema are rejected; \`gpu\` and \`cpu\` objects also reject unlisted properties.",
      "severity": "error",
      "status": "fail",
      "durationMs": 1534,
      "requests": 17,
      "failures": [
        {
          "ruleId": "pods.create.unknown-property",
          "title": "Unknown properties are rejected",
          "severity": "error",
          "spec": "Properties not listed in the body schema are rejected; \`gpu\` and \`cpu\` objects also reject unlisted properties.",
          "evidence": {
            "request": {
              "method": "POST",
              "url": "http://127.0.0.1:8080/v2/pods",
              "headers": {
                "content-type": "application/json",
                "authorization": "Bearer \${CPSIM_API_KEY}"
              },
              "body": {
                "kind": "text",
                "text": "{\\"name\\":\\"<script>alert(1)</script>\\",\\"image\\":\\"i\\",\\"gpu\\":{\\"id\\":\\"A\\"},\\"bogus\\":1}"
              }
            },
            "expected": "400 problem+json naming the unknown property \`bogus\`",
            "got": {
              "status": 201,
              "headers": {
                "content-type": "application/json"
              },
              "body": "{\\"id\\":\\"p1\\",\\"name\\":\\"<script>alert(1)</script>\\",\\"note\\":\\"]]> & \\u0007 bell\\"}"
            },
            "sequence": [
              {
                "method": "POST",
                "url": "http://127.0.0.1:8080/v2/pods",
                "headers": {
                  "content-type": "application/json"
                },
                "body": {
                  "kind": "runs",
                  "size": 1000020,
                  "parts": [
                    {
                      "text": "{\\"pad\\":\\""
                    },
                    {
                      "char": "a",
                      "count": 1000010
                    },
                    {
                      "text": "\\"}"
                    }
                  ]
                }
              }
            ]
          },
          "reproduction": {
            "seed": 42,
            "path": "3:1:0",
            "command": "cpsim conform --target http://127.0.0.1:8080 --seed 42 --only pods.create.unknown-property",
            "curl": "#!/usr/bin/env bash\\n# cpsim conform: reproduction of pods.create.unknown-property\\n: \\"\${CPSIM_API_KEY:?set CPSIM_API_KEY to the key given as --api-key}\\"\\ncurl -sS -X POST 'http://127.0.0.1:8080/v2/pods' -H 'content-type: application/json' -H \\"authorization: Bearer \${CPSIM_API_KEY}\\" --data-binary '{\\"name\\":\\"x\\",\\"image\\":\\"i\\",\\"gpu\\":{\\"id\\":\\"A\\"},\\"bogus\\":1}' -w '\\\\n--> HTTP %{http_code}\\\\n'\\n"
          }
        }
      ]
    },
    {
      "id": "auth.restricted-key.forbidden",
      "title": "A valid key without access gives 403",
      "spec": "A valid key without access to the resource or action gives 403.",
      "severity": "error",
      "status": "skip",
      "reason": "needs --restricted-api-key",
      "durationMs": 0,
      "failures": []
    },
    {
      "id": "jobs.retry.only-failed",
      "title": "Retry only from FAILED or TIMED_OUT",
      "spec": "\`retry\` works only for jobs whose status is FAILED or TIMED_OUT",
      "severity": "warning",
      "status": "known",
      "reason": "failed in the baseline too",
      "durationMs": 250,
      "failures": []
    },
    {
      "id": "jobs.runsync.waits",
      "title": "runsync waits for completion",
      "spec": "\`runsync\` waits for completion and returns the whole result in one response.",
      "severity": "error",
      "status": "skip",
      "reason": "target error: CPSIM_ERR_TARGET_TIMEOUT",
      "durationMs": 30001,
      "failures": []
    }
  ],
  "coverage": {
    "rules": {
      "checked": 5,
      "total": 8,
      "unchecked": [
        "pods.patch.mount-kind",
        "graphql.pod-stop.exited",
        "limits.run.payload"
      ]
    },
    "transitions": [
      {
        "machine": "pod",
        "from": "(none)",
        "to": "PROVISIONING",
        "exercised": true
      },
      {
        "machine": "pod",
        "from": "PROVISIONING",
        "to": "STARTING",
        "exercised": true
      },
      {
        "machine": "pod",
        "from": "STARTING",
        "to": "RUNNING",
        "exercised": false
      },
      {
        "machine": "job",
        "from": "IN_QUEUE",
        "to": "IN_PROGRESS",
        "exercised": true
      },
      {
        "machine": "job",
        "from": "FAILED",
        "to": "IN_QUEUE",
        "exercised": false
      }
    ]
  },
  "summary": {
    "passed": 1,
    "failed": 1,
    "skipped": 2,
    "setupNotReached": 0,
    "known": 1,
    "targetErrors": 1
  },
  "targetErrors": [
    {
      "ruleId": "jobs.runsync.waits",
      "code": "CPSIM_ERR_TARGET_TIMEOUT",
      "message": "no response within 30000 ms",
      "request": {
        "method": "POST",
        "url": "http://127.0.0.1:8080/v2/conformance/runsync",
        "headers": {}
      }
    }
  ]
}

`
