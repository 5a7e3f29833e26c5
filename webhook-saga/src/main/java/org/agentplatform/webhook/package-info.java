/**
 * Webhook delivery: fan-out of task status changes, the delivery saga and its retry schedule on
 * persistent deadlines, signing and dispatch.
 */
package org.agentplatform.webhook;
