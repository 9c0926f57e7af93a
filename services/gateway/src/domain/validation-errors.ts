import type { z } from 'zod';
import { AppError } from './app-error';

/** zod issues → the contract's 422: messages per field, fields in the schema's order. */
export function validationError(error: z.ZodError): AppError {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[String(issue.path[0] ?? 'request')] ??= []).push(issue.message);
  return AppError.validation(errors);
}
