export * from './address-guard';
export * from './trusted-ca';
