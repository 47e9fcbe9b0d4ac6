/** HTTP clients of the companion interfaces: bridge, points, aggregator, inference. */
export * from './errors.js';
export * from './inferenceErrors.js';
export * from './schemas.js';
export * from './transport.js';
export * from './bridgeClient.js';
export * from './pointsClient.js';
export * from './aggregatorClient.js';
export * from './inferenceClient.js';
