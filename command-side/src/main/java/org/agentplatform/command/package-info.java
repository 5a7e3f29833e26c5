/**
 * The write side: event-sourced aggregates and their rules, and the ports (interfaces) through
 * which processes reach the outside world. No I/O, no web, no SQL here; adapters live in infra.
 */
package org.agentplatform.command;
