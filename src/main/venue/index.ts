/** Venue market data: the info API, the WebSocket feed, and the join to the service's markets. */
export * from './schemas.js';
export * from './venueInfoClient.js';
export * from './venueSocket.js';
export * from './marketJoin.js';
export * from './venueSocketPool.js';
