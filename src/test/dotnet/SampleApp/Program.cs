using System.Diagnostics;
using System.Runtime.InteropServices;

// The sample the README quick start points clrscope at: about three seconds of visible work
// (allocations and full GCs), one line per step, then exit code 0.
const int Steps = 3;
const int BytesPerStep = 8 * 1024 * 1024;
TimeSpan stepLength = TimeSpan.FromSeconds(1);

int pid = Environment.ProcessId;
Console.WriteLine($"SampleApp pid {pid} on {RuntimeInformation.FrameworkDescription}: {Steps} steps of about {stepLength.TotalSeconds:0} s");

var survivors = new List<byte[]>();
for (int step = 1; step <= Steps; step++)
{
    var clock = Stopwatch.StartNew();
    var chunks = new List<byte[]>();
    for (int allocated = 0; allocated < BytesPerStep; allocated += 4096)
    {
        chunks.Add(new byte[4096]);
    }
    // Keep one chunk in sixteen so the heap grows a little from step to step.
    for (int i = 0; i < chunks.Count; i += 16)
    {
        survivors.Add(chunks[i]);
    }
    chunks.Clear();
    GC.Collect(2);
    Console.WriteLine(
        $"pid {pid}: step {step}/{Steps}: allocated {BytesPerStep / (1024 * 1024)} MB, heap {GC.GetTotalMemory(false) / (1024 * 1024)} MB, gen2 collections {GC.CollectionCount(2)}");
    TimeSpan rest = stepLength - clock.Elapsed;
    if (rest > TimeSpan.Zero)
    {
        Thread.Sleep(rest);
    }
}
Console.WriteLine($"pid {pid}: done, kept {survivors.Count} chunks");
return 0;
