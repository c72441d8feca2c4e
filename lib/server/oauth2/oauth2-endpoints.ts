import "server-only";
import { lazyHandler } from "../http/lazy-handler";

const endpoints = () => import("./authorization-server");

/** The paths server.ts hands to the authorization server (authorization-server.ts), which loads with the first of them. */
export const OAUTH2_ENDPOINTS = [
  { methods: ["GET", "HEAD"], pattern: /^\/\.well-known\/oauth-authorization-server\/?$/, handler: lazyHandler(async () => (await endpoints()).metadataEndpoint) },
  { methods: ["POST"], pattern: /^\/oauth2\/authorize\/?$/, handler: lazyHandler(async () => (await endpoints()).authorizeEndpoint) },
  { methods: ["POST"], pattern: /^\/oauth2\/token\/?$/, handler: lazyHandler(async () => (await endpoints()).tokenEndpoint) },
  { methods: ["POST"], pattern: /^\/oauth2\/revoke\/?$/, handler: lazyHandler(async () => (await endpoints()).revokeEndpoint) },
];
