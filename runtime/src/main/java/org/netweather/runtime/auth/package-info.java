/**
 * Who calls a daemon ({@link org.netweather.runtime.auth.Caller}, {@link
 * org.netweather.runtime.auth.Role}) and where that is established for every call ({@link
 * org.netweather.runtime.auth.CallerInterceptor}).
 */
package org.netweather.runtime.auth;
