/**
 * Process swapping for iterative applications after Sievert and Casanova, "MPI Process Swapping",
 * UCSD TR CS2003-0735, 2003 (docs/schedulers/swapping.md), with the forecast-payback policy FPH of
 * §5d.
 *
 * <ul>
 *   <li>Library: {@link org.netweather.scheduler.swap.SwapState} (register iteration state), {@link
 *       org.netweather.scheduler.swap.IterativeProcess} and {@link
 *       org.netweather.scheduler.swap.ProcessGroup} (over-allocated processes, a swap point every k
 *       iterations); {@code ExampleIterativeApp} (scheduler-sim).
 *   <li>Policies: {@link org.netweather.scheduler.swap.NaivePolicy} (the paper's, and with the
 *       self-load correction) and {@link org.netweather.scheduler.swap.FphPolicy}.
 *   <li>{@link org.netweather.scheduler.swap.SwapManager} (one per application) and {@link
 *       org.netweather.scheduler.swap.SwapDispatcher}, served over gRPC ({@code swap.proto}) by
 *       {@link org.netweather.scheduler.swap.SwapDispatcherService} in a {@link
 *       org.netweather.scheduler.swap.SwapDispatcherServer}, called through {@link
 *       org.netweather.scheduler.swap.SwapDispatcherClient}.
 *   <li>{@code SwapSimulator} (scheduler-sim): the §5d experiment.
 *   <li>Live forecasts: {@link org.netweather.scheduler.swap.SnapshotHostViews} builds the
 *       policies' host views from a NetWeather cluster snapshot (CPU availability forecast and its
 *       MAE, corrected for our own process on active hosts; bandwidth for swap costs), and {@link
 *       org.netweather.scheduler.swap.LiveForecasts} fetches one per refresh interval for a
 *       manager's epochs, from a proxy ({@code NetWeatherClient.snapshot}) or a file. {@code nws
 *       swap views (--cluster C | --snapshot FILE) --active H1,H2} shows what they see.
 * </ul>
 *
 * Policies and the manager never touch a transport or a clock: time comes in each {@link
 * org.netweather.scheduler.swap.SwapPolicy.Epoch}.
 */
package org.netweather.scheduler.swap;
