import { v7 } from 'uuid';

/** Version 7 UUIDs sort by creation time (decisions.md, request details). */
export function uuidv7(): string {
  return v7();
}
