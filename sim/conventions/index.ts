export { type Conventions, type Dimension, type DimensionId, DIMENSIONS, EMULATOR_CONVENTIONS } from "./dimensions.ts";
export { CONVENTIONS_FORMS, ConventionsError, conventionsFrom, describeConventions, describeDifferences, drawConventions, parseConventionsArg } from "./draw.ts";
export { conventionsBackend, jobIdIn, jobIdOut, volumePath } from "./layer.ts";
export { DESCRIPTION_PATHS, descriptionPath } from "./description.ts";
export { renderConventionsDoc } from "./render-doc.ts";
export { catalogUnder } from "./catalog.ts";
export { modelUnder } from "./model-options.ts";
