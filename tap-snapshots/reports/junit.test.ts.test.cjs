/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`reports/junit.test.ts > TAP > JUnit XML is well-formed, one testcase per rule, with failures, skips and errors > junit.xml 1`] = `
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="cpsim conform" tests="5" failures="1" errors="1" skipped="2" time="31.797">
  <testsuite name="cpsim conform http://127.0.0.1:8080" tests="5" failures="1" errors="1" skipped="2" time="31.797" timestamp="2025-01-01T00:00:00.000Z">
    <properties>
      <property name="target" value="http://127.0.0.1:8080"/>
      <property name="serverless-url" value="http://127.0.0.1:8080"/>
      <property name="seed" value="42"/>
      <property name="profile" value="lenient"/>
      <property name="verdict" value="FAILED (1 failed; 5 of 8 rules judged)"/>
      <property name="baseline" value="previous/report.json"/>
    </properties>
    <testcase classname="pods.create" name="pods.create.required-fields" time="0.012">
      <system-out>spec: Required in the response: id, name, status, ...</system-out>
    </testcase>
    <testcase classname="pods.create" name="pods.create.unknown-property" time="1.534">
      <failure message="1 failure(s): 400 problem+json naming the unknown property \`bogus\`" type="error">rule: pods.create.unknown-property (error): Unknown properties are rejected
spec: Properties not listed in the body schema are rejected; \`gpu\` and \`cpu\` objects also reject unlisted properties.
expected: 400 problem+json naming the unknown property \`bogus\`
got: HTTP 201
content-type: application/json

{&quot;id&quot;:&quot;p1&quot;,&quot;name&quot;:&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;,&quot;note&quot;:&quot;]]&gt; &amp; \\u0007 bell&quot;}

request:
POST http://127.0.0.1:8080/v2/pods
content-type: application/json
authorization: Bearer \${CPSIM_API_KEY}

{&quot;name&quot;:&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;,&quot;image&quot;:&quot;i&quot;,&quot;gpu&quot;:{&quot;id&quot;:&quot;A&quot;},&quot;bogus&quot;:1}

seed: 42 path: 3:1:0
reproduce with: cpsim conform --target http://127.0.0.1:8080 --seed 42 --only pods.create.unknown-property
curl:
#!/usr/bin/env bash
# cpsim conform: reproduction of pods.create.unknown-property
: &quot;\${CPSIM_API_KEY:?set CPSIM_API_KEY to the key given as --api-key}&quot;
curl -sS -X POST &apos;http://127.0.0.1:8080/v2/pods&apos; -H &apos;content-type: application/json&apos; -H &quot;authorization: Bearer \${CPSIM_API_KEY}&quot; --data-binary &apos;{&quot;name&quot;:&quot;x&quot;,&quot;image&quot;:&quot;i&quot;,&quot;gpu&quot;:{&quot;id&quot;:&quot;A&quot;},&quot;bogus&quot;:1}&apos; -w &apos;\\n--&gt; HTTP %{http_code}\\n&apos;
</failure>
      <system-out>spec: Properties not listed in the body schema are rejected; \`gpu\` and \`cpu\` objects also reject unlisted properties.</system-out>
    </testcase>
    <testcase classname="auth.restricted-key" name="auth.restricted-key.forbidden" time="0.000">
      <skipped message="needs --restricted-api-key"/>
      <system-out>spec: A valid key without access to the resource or action gives 403.</system-out>
    </testcase>
    <testcase classname="jobs.retry" name="jobs.retry.only-failed" time="0.250">
      <skipped message="failed in the baseline too"/>
      <system-out>spec: \`retry\` works only for jobs whose status is FAILED or TIMED_OUT</system-out>
    </testcase>
    <testcase classname="jobs.runsync" name="jobs.runsync.waits" time="30.001">
      <error message="no response within 30000 ms" type="CPSIM_ERR_TARGET_TIMEOUT">CPSIM_ERR_TARGET_TIMEOUT: no response within 30000 ms
POST http://127.0.0.1:8080/v2/conformance/runsync</error>
      <system-out>spec: \`runsync\` waits for completion and returns the whole result in one response.</system-out>
    </testcase>
    <system-out>FAILED (1 failed; 5 of 8 rules judged)</system-out>
  </testsuite>
</testsuites>

`
