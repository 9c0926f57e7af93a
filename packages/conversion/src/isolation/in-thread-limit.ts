/**
 * Plain text up to this size converts in the calling thread (`convertSmallTextInThread`, ./in-thread.ts). Its
 * reader, the sniffer and the writer are linear in the text (test/in-thread.test.ts converts the
 * worst inputs found at this size), so a conversion takes well under a millisecond and the
 * deadline that only a worker thread can enforce has nothing to stop.
 */
export const IN_THREAD_TEXT_MAX_BYTES = 4 * 1024;
