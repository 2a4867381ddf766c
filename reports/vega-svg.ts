/**
 * Renders a vega-lite spec to an SVG string, offline: vega-lite compiles it to vega, and vega's
 * headless view draws it with no renderer and no network (data are inline values).
 */
import * as vega from "vega";
import * as vl from "vega-lite";

export async function vegaLiteToSvg(spec: vl.TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
