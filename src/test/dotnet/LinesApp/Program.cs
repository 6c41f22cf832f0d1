using System.Runtime.CompilerServices;

// Throws and catches COUNT exceptions (first argument, default 3) in Thrower.Fail, each at the
// line marked below, prints one line, and exits with 0: what the PDB tests watch with
// `clrscope exceptions -- dotnet LinesApp.dll`, its PDB beside it, elsewhere, served, or embedded.
int count = args.Length > 0 ? int.Parse(args[0]) : 3;
int caught = 0;
for (int i = 0; i < count; i++)
{
    try
    {
        Thrower.Fail(i);
    }
    catch (InvalidOperationException)
    {
        caught++;
    }
}
Console.WriteLine($"caught {caught}");
return 0;

internal static class Thrower
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static void Fail(int i)
    {
        throw new InvalidOperationException("lines app failure " + i); // line: lines-app-throw
    }
}
