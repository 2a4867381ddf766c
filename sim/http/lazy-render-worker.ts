/** A worker thread's task (piscina): makes the string a lazy output part stands for. */
import { type MosaicRecipe, renderRecipe } from "../domain/handlers/lazy-output.ts";

export default function renderTask(recipe: MosaicRecipe): string {
  return renderRecipe(recipe);
}
