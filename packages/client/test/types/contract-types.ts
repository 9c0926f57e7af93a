/*
 * Compiled (not run) by contract-types.test.ts: the client's hand-written wire types must be the
 * contract's types (packages/contracts/src/api.ts, the schemas that validate and document the API).
 * The client keeps its own declarations so it ships with no dependency; this file is what stops them
 * drifting. A field added, removed, renamed or retyped on either side fails to compile here.
 */
import type * as Contract from '../../../contracts/src/api';
import type * as Structure from '../../../contracts/src/structure';
import type * as Client from '../../src/types';

/** Each is assignable to the other and both have the same keys: the same shape for a JSON body. */
type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;
type ByStatus<U, S> = Extract<U, { status: S }>;
const yes = <T extends true>(): T | undefined => undefined;

yes<Same<Client.ConversionStatus, Contract.ConversionStatus>>();
yes<Same<Client.ConversionMetadata, Contract.DocumentMetadata>>();
yes<Same<Client.TokenOptimization, Contract.TokenOptimization>>();
yes<Same<Client.SyncConversionResult, Contract.SyncConversionResult>>();
yes<Same<Client.QueuedConversion, Contract.QueuedConversion>>();
yes<Same<Client.ConversionDetail, Contract.ConversionDetail>>();
yes<Same<Client.PendingConversion, ByStatus<Contract.ConversionDetail, 'pending'>>>();
yes<Same<Client.ProcessingConversion, ByStatus<Contract.ConversionDetail, 'processing'>>>();
yes<Same<Client.CompletedConversion, ByStatus<Contract.ConversionDetail, 'completed'>>>();
yes<Same<Client.FailedConversion, ByStatus<Contract.ConversionDetail, 'failed'>>>();
yes<Same<Client.ConversionListItem, Contract.ConversionListItem>>();
yes<Same<Client.ConversionPage, Contract.ConversionPage>>();
yes<Same<Client.WebhookPayload, Contract.WebhookPayload>>();
yes<Same<ByStatus<Client.WebhookPayload, 'completed'>, ByStatus<Contract.WebhookPayload, 'completed'>>>();
yes<Same<ByStatus<Client.WebhookPayload, 'failed'>, ByStatus<Contract.WebhookPayload, 'failed'>>>();
yes<Same<Client.Page, Structure.Page>>();
yes<Same<Client.Chunk, Structure.Chunk>>();
yes<Same<Client.DocumentData, Structure.DocumentData>>();
yes<Same<Client.DocBlock, Structure.DocBlock>>();
