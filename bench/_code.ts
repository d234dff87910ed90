import { z } from "zod";
import { FastRawEvalCaseSchema } from "../lib/schema/eval_file.ts";
// @ts-ignore internal
import { compileFn } from "npm:zod@4.6.7/v4/core";
