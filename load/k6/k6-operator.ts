/**
 * Manifests for running the exported scripts distributed on Kubernetes with k6-operator: one
 * TestRun per scenario (k6-operator splits the arrival rate across `parallelism` runners with
 * execution segments) reading its script from a ConfigMap, and the recipe that makes the
 * ConfigMap and the Secret holding the key.
 */
import type { Scenario } from "../scenario.ts";

export const CONFIGMAP = "cpsim-load-scripts";
export const SECRET = "cpsim-load";

export function testRunManifest(scenarios: readonly Scenario[], o: { target?: string; serverlessUrl?: string; endpoint: string; parallelism?: number }): string {
  const base = o.target ?? "http://cpsim.default.svc:8080";
  return scenarios
    .map(
      (s) => `apiVersion: k6.io/v1alpha1
kind: TestRun
metadata:
  name: cpsim-${s.name}
spec:
  parallelism: ${o.parallelism ?? 4}
  script:
    configMap:
      name: ${CONFIGMAP}
      file: ${s.name}.js
  arguments: --tag testid=cpsim-${s.name}
  runner:
    env:
      - name: BASE_URL
        value: "${base}"
      - name: SERVERLESS_URL
        value: "${o.serverlessUrl ?? base}"
      - name: ENDPOINT
        value: "${o.endpoint}"
      - name: API_KEY
        valueFrom:
          secretKeyRef:
            name: ${SECRET}
            key: api-key
${
  s.key === "limited"
    ? `      - name: LIMITED_API_KEY
        valueFrom:
          secretKeyRef:
            name: ${SECRET}
            key: limited-api-key
`
    : ""
}`,
    )
    .join("---\n");
}

export function configMapRecipe(dir: string): string {
  return `# Running the exported scenarios on Kubernetes with k6-operator

1. Install k6-operator (https://github.com/grafana/k6-operator), e.g.
   \`kubectl apply --server-side -f https://raw.githubusercontent.com/grafana/k6-operator/main/bundle.yaml\`
2. Put the scripts in a ConfigMap (one key per script):

       kubectl create configmap ${CONFIGMAP} --from-file=${dir}/scripts/ --dry-run=client -o yaml | kubectl apply -f -

3. Put the keys in a Secret (never in the manifests):

       kubectl create secret generic ${SECRET} --from-literal=api-key="$API_KEY" --from-literal=limited-api-key="$LIMITED_API_KEY"

4. Edit BASE_URL in testrun.yaml if needed, then start the runs:

       kubectl apply -f ${dir}/testrun.yaml
       kubectl get testruns -w

Each runner writes its summary through handleSummary (SUMMARY_DIR, default the working
directory); copy one out with \`kubectl cp\` and compare it with \`cpsim load --baseline FILE\`.
Single machine: \`k6 run -e BASE_URL=... -e API_KEY=... ${dir}/scripts/run-small.js\`.
`;
}
