/** Lane 5 of the fast tier: see lanes.ts. */
import { runLane } from "./lanes.ts";

await runLane(5);
