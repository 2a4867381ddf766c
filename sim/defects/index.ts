// Defect injection: the documented defects `cpsim serve --defect` switches on, and the backend that applies them.
export type { Defect, DefectArea, Edge } from "./defect.ts";
export { DEFECT_AREAS } from "./defect.ts";
export { defects, defectByName, defectsNamed, selectDefects, ruleOf, renderDefectList, defectListJson, UnknownDefectError } from "./defects.ts";
export { defectiveBackend } from "./defective-backend.ts";
